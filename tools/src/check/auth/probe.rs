//! The exchanges of `check --http --auth` and their verdicts: the
//! challenge parser, each exchange kept with what the model expects of it,
//! the valid, invalid and scope probes, and the checks over every exchange
//! (the challenges' parameters, no token echoed). The metadata and user
//! probes are in [`super::discovery`].

use std::cell::RefCell;

use mcp_reference_testkit::issuer::{Change, Issuer, Minting, claims_for};
use mcp_reference_testkit::model::auth::{AuthExpect, expect_auth};
use mcp_reference_testkit::model::http::HttpRequest;
use serde_json::{Value, json};

use super::super::http::{Run, body, post_json, set, show_request, show_response};
use super::super::report::{Failure, Outcome};
use super::{AuthCheck, now};
use crate::http_client::Response;

/// A challenge: its scheme and parameters, names in lower case.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Challenge {
    scheme: String,
    params: Vec<(String, String)>,
}

impl Challenge {
    /// Parses `scheme name=value, name="quoted"` (RFC 9110 section 11.6.1).
    pub(super) fn parse(text: &str) -> Challenge {
        let text = text.trim();
        let (scheme, mut rest) = text.split_once(' ').unwrap_or((text, ""));
        let mut params = Vec::new();
        loop {
            rest = rest.trim_start_matches([' ', '\t', ',']);
            let Some((name, after)) = rest.split_once('=') else {
                break;
            };
            let name = name.trim().to_ascii_lowercase();
            let after = after.trim_start();
            let (value, tail) = if let Some(quoted) = after.strip_prefix('"') {
                let mut value = String::new();
                let mut chars = quoted.char_indices();
                let mut end = quoted.len();
                while let Some((i, c)) = chars.next() {
                    match c {
                        '\\' => value.extend(chars.next().map(|(_, c)| c)),
                        '"' => {
                            end = i + 1;
                            break;
                        }
                        c => value.push(c),
                    }
                }
                (value, quoted.get(end..).unwrap_or_default())
            } else {
                let cut = after.find(',').unwrap_or(after.len());
                (after[..cut].trim().to_owned(), &after[cut..])
            };
            params.push((name, value));
            rest = tail;
        }
        Challenge {
            scheme: scheme.to_owned(),
            params,
        }
    }

    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub(super) fn of(response: &Response) -> Option<Challenge> {
        response.header("www-authenticate").map(Challenge::parse)
    }
}

/// One exchange the model judged: the request, what the model expects,
/// and the response.
pub(super) struct Seen {
    pub(super) label: String,
    pub(super) request: HttpRequest,
    pub(super) expect: AuthExpect,
    pub(super) response: Response,
}

impl Seen {
    pub(super) fn failure(&self, reason: String) -> Outcome {
        Outcome::Fail(Failure {
            reason,
            request: Some(show_request(&self.request)),
            reply: Some(show_response(&self.response)),
        })
    }

    /// The model's challenge, parsed.
    fn expected_challenge(&self) -> Option<Challenge> {
        match &self.expect {
            AuthExpect::Step { challenge, .. } => challenge.as_deref().map(Challenge::parse),
            AuthExpect::Binding { .. } => None,
        }
    }

    /// The status the model's row gives, against the response's.
    fn status_as_model_says(&self) -> Outcome {
        let AuthExpect::Step { row, status, .. } = &self.expect else {
            return Outcome::NotRun(format!(
                "{}: the model answers it past the authorization step (a bug in the checker)",
                self.label
            ));
        };
        if self.response.status == *status {
            Outcome::Pass
        } else {
            let ran = if self.response.status < 300 {
                ", and the request was served"
            } else {
                ""
            };
            self.failure(format!(
                "{}: status {}{ran}, but row {row} of docs/behavior.md needs {status}",
                self.label, self.response.status
            ))
        }
    }
}

/// A judgment of one refusal: what it got wrong, if anything.
type Judge<'a> = dyn Fn(&Seen, &Challenge, Option<Challenge>) -> Option<String> + 'a;

pub(super) struct Probe<'a> {
    pub(super) run: Run,
    pub(super) check: &'a AuthCheck,
    pub(super) minting: Minting,
    /// Every exchange the model judged.
    pub(super) seen: RefCell<Vec<Seen>>,
}

/// The first failing outcome, else the first not-run one, else pass.
fn combine(outcomes: impl IntoIterator<Item = Outcome>) -> Outcome {
    let all: Vec<Outcome> = outcomes.into_iter().collect();
    all.iter()
        .find(|o| matches!(o, Outcome::Fail(_)))
        .or_else(|| all.iter().find(|o| matches!(o, Outcome::NotRun(_))))
        .cloned()
        .unwrap_or(Outcome::Pass)
}

impl Probe<'_> {
    pub(super) fn scope(&self) -> &str {
        &self.check.options.scope
    }

    /// `request` with `token` as its only `Authorization`.
    pub(super) fn bearer(&self, request: &HttpRequest, token: Option<&str>) -> HttpRequest {
        let mut r = request.clone();
        set(&mut r, "Authorization", None);
        if let Some(token) = token {
            set(
                &mut r,
                "Authorization",
                Some(format!("Bearer {token}").as_bytes()),
            );
        }
        r
    }

    /// Sends `request`, asks the model, and keeps both.
    pub(super) fn exchange(&self, label: &str, request: HttpRequest) -> Result<usize, Outcome> {
        let expect = expect_auth(
            &self.run.config,
            self.run.listen,
            self.check.issuer.jwks(),
            now(),
            &request,
        );
        let response = self.run.send(&request)?;
        let mut seen = self.seen.borrow_mut();
        seen.push(Seen {
            label: label.to_owned(),
            request,
            expect,
            response,
        });
        Ok(seen.len() - 1)
    }

    /// A GET or HEAD of `target` on the server, without a token.
    pub(super) fn get(&self, method: &str, target: &str) -> HttpRequest {
        HttpRequest {
            method: method.into(),
            target: target.into(),
            headers: vec![
                ("Host".into(), self.run.url.authority.clone().into_bytes()),
                ("Accept".into(), b"application/json".to_vec()),
            ],
            body: Vec::new(),
        }
    }

    pub(super) fn all(&self) -> Vec<(&'static str, Outcome)> {
        let mut results: Vec<(&'static str, Outcome)> = Vec::new();
        let Some(settings) = self
            .run
            .config
            .http()
            .authorization
            .as_ref()
            .and_then(|a| a.oauth())
        else {
            return results;
        };
        // Without credentials.
        let list = self.run.post(body(2, "tools/list", ""));
        let none = self.exchange("no Authorization", list.clone());
        results.push(("auth.no-credentials", self.no_credentials(&none)));
        // The metadata, by every mechanism.
        self.metadata(settings, &none, &mut results);
        // Valid tokens.
        let owner_order = self.run.config.orders().first().cloned();
        let owner = owner_order
            .as_ref()
            .map_or("mira", |o| o.owner.as_str())
            .to_owned();
        let token = self
            .check
            .issuer
            .token_for(&self.minting, &owner, self.scope());
        let valid = self.exchange("a valid token", self.bearer(&list, Some(&token)));
        let listed = match &valid {
            Ok(i) => {
                let seen = self.seen.borrow();
                let s = &seen[*i];
                post_json(&s.request, &s.response, 2)
            }
            Err(o) => o.clone(),
        };
        let accepted = listed == Outcome::Pass;
        results.push(("auth.valid-list", listed));
        let tools: Vec<String> = valid
            .ok()
            .and_then(|i| self.seen.borrow()[i].response.reply())
            .and_then(|v| v.pointer("/result/tools").cloned())
            .and_then(|t| t.as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|t| t.get("name").and_then(Value::as_str).map(str::to_owned))
            .collect();
        let book_orders = tools.iter().any(|t| t == "get_order") && owner_order.is_some();
        let call = |id: u32, order: &str| {
            self.run.post(body(
                id,
                "tools/call",
                &format!(
                    r#""name":"get_order","arguments":{{"order_id":{}}}"#,
                    Value::from(order)
                ),
            ))
        };
        let call_request = match (&owner_order, tools.first()) {
            (Some(order), _) if book_orders => Some(call(3, &order.order_id)),
            (_, Some(name)) => Some(self.run.post(body(
                3,
                "tools/call",
                &format!(r#""name":{},"arguments":{{}}"#, Value::from(name.as_str())),
            ))),
            _ => None,
        };
        let refusals_show_nothing =
            "the valid token was not accepted (auth.valid-list), so a refusal shows nothing";
        let owner_result = match &call_request {
            None if accepted => {
                results.push((
                    "auth.valid-call",
                    Outcome::Skip("tools/list named no tool".into()),
                ));
                None
            }
            None => {
                results.push((
                    "auth.valid-call",
                    Outcome::Skip(refusals_show_nothing.into()),
                ));
                None
            }
            Some(request) => {
                match self.exchange("a valid token", self.bearer(request, Some(&token))) {
                    Ok(i) => {
                        let seen = self.seen.borrow();
                        let s = &seen[i];
                        let ok = match s.response.reply() {
                        Some(_) if s.response.status == 200 => Outcome::Pass,
                        _ => s.failure(format!(
                            "status {} without a JSON-RPC response: the valid token was not served",
                            s.response.status
                        )),
                    };
                        results.push(("auth.valid-call", ok));
                        s.response.reply()
                    }
                    Err(o) => {
                        results.push(("auth.valid-call", o));
                        None
                    }
                }
            }
        };
        // Users.
        self.users(book_orders, owner_result.as_ref(), &mut results);
        // An admitted request answered with a JSON-RPC error (a tool the
        // server did not list, which no server runs): an error's message
        // is one more place where a token must not show (auth.no-echo,
        // row A8). Its answer is judged by the other checks, not here.
        if accepted {
            let mut unknown = String::from("mcp-check-unlisted");
            while tools.contains(&unknown) {
                unknown.push('_');
            }
            let request = self.run.post(body(
                4,
                "tools/call",
                &format!(r#""name":{},"arguments":{{}}"#, Value::from(unknown)),
            ));
            // A failed exchange leaves no response where a token could show.
            let _ = self.exchange(
                "a valid token, a tool the server did not list",
                self.bearer(&request, Some(&token)),
            );
        }
        // Invalid tokens.
        let target = call_request.unwrap_or_else(|| list.clone());
        self.invalid(&owner, &target, accepted, &mut results);
        // Scope.
        let unscoped = self
            .check
            .issuer
            .token_for(&self.minting, &owner, "mcp-check:unrelated");
        results.push((
            "auth.insufficient-scope",
            if !accepted {
                Outcome::Skip(refusals_show_nothing.into())
            } else {
                match self.exchange(
                    "a token without the scope",
                    self.bearer(&target, Some(&unscoped)),
                ) {
                    Ok(i) => self.insufficient_scope(i),
                    Err(o) => o,
                }
            },
        ));
        // Across every exchange.
        self.across(&mut results);
        results
    }

    fn no_credentials(&self, none: &Result<usize, Outcome>) -> Outcome {
        let i = match none {
            Ok(i) => *i,
            Err(o) => return o.clone(),
        };
        let seen = self.seen.borrow();
        let s = &seen[i];
        match s.status_as_model_says() {
            Outcome::Pass => {}
            other => return other,
        }
        match Challenge::of(&s.response) {
            Some(c) if c.scheme.eq_ignore_ascii_case("bearer") => Outcome::Pass,
            Some(c) => s.failure(format!(
                "the challenge's scheme is {:?}, not Bearer",
                c.scheme
            )),
            None => s.failure("a 401 without WWW-Authenticate".into()),
        }
    }

    fn invalid(
        &self,
        owner: &str,
        target: &HttpRequest,
        accepted: bool,
        results: &mut Vec<(&'static str, Outcome)>,
    ) {
        let issuer = &self.check.issuer;
        let m = &self.minting;
        let scope = self.scope();
        let changed = |c: Change| vec![(String::new(), issuer.changed_for(m, owner, scope, c))];
        let mut hmac = issuer.hmac_with_public_keys(m, owner, scope);
        hmac.push((
            "ES256-signed".into(),
            issuer.changed_for(m, owner, scope, Change::AlgHmac),
        ));
        let unknown_key = {
            let rotated = Issuer::new(2);
            let header = json!({"typ": "at+jwt", "alg": "ES256", "kid": "ec2"});
            vec![(
                String::new(),
                rotated.mint(&header, &claims_for(m, owner, scope)),
            )]
        };
        let no_expiry = {
            let mut claims = claims_for(m, owner, scope);
            if let Some(c) = claims.as_object_mut() {
                c.remove("exp");
            }
            issuer.mint(&mcp_reference_testkit::issuer::header(), &claims)
        };
        let tokens: Vec<(&'static str, Vec<(String, String)>)> = vec![
            ("auth.token-expired", changed(Change::Expired)),
            ("auth.token-audience", changed(Change::Audience)),
            ("auth.token-no-audience", changed(Change::NoAudience)),
            ("auth.token-issuer", changed(Change::Issuer)),
            ("auth.token-alg-none", changed(Change::AlgNone)),
            ("auth.token-hmac", hmac),
            ("auth.token-unknown-key", unknown_key),
            ("auth.token-signature", changed(Change::SignatureByte(3))),
            ("auth.token-alg-swap", changed(Change::AlgSwap)),
            ("auth.token-not-yet", changed(Change::NotYet)),
            ("auth.token-no-expiry", vec![(String::new(), no_expiry)]),
            ("auth.token-kid-mismatch", changed(Change::Kid)),
            ("auth.token-typ", changed(Change::Typ)),
            ("auth.token-no-subject", changed(Change::NoSubject)),
        ];
        for (id, variants) in tokens {
            if !accepted {
                results.push((
                    id,
                    Outcome::Skip("the valid token was not accepted (auth.valid-list), so a refusal shows nothing".into()),
                ));
                continue;
            }
            let outcomes = variants.iter().map(|(form, token)| {
                let label = if form.is_empty() {
                    id.trim_start_matches("auth.").to_owned()
                } else {
                    format!("{} ({form})", id.trim_start_matches("auth."))
                };
                match self.exchange(&label, self.bearer(target, Some(token))) {
                    Ok(i) => self.seen.borrow()[i].status_as_model_says(),
                    Err(o) => o,
                }
            });
            results.push((id, combine(outcomes.collect::<Vec<_>>())));
        }
        // The query string.
        let token = issuer.token_for(m, owner, scope);
        let mut query = self.bearer(target, None);
        query.target = format!("{}?access_token={token}", self.run.url.path);
        results.push((
            "auth.token-query",
            match self.exchange("a token in the query string", query) {
                Ok(i) => self.seen.borrow()[i].status_as_model_says(),
                Err(o) => o,
            },
        ));
    }

    fn insufficient_scope(&self, i: usize) -> Outcome {
        let seen = self.seen.borrow();
        let s = &seen[i];
        match s.status_as_model_says() {
            Outcome::Pass => {}
            other => return other,
        }
        let (Some(want), got) = (s.expected_challenge(), Challenge::of(&s.response)) else {
            return Outcome::NotRun("the model names no challenge (a bug in the checker)".into());
        };
        let got = got.unwrap_or_default();
        for (name, value) in &want.params {
            let present = got.get(name);
            let fine = match name.as_str() {
                "error" => present == Some(value.as_str()),
                _ => present.is_some(),
            };
            if !fine {
                return s.failure(format!(
                    "the challenge's {name} is {present:?}; expected {}",
                    if name == "error" {
                        format!("{value:?}")
                    } else {
                        "one".into()
                    }
                ));
            }
        }
        Outcome::Pass
    }

    /// The checks over every exchange: the challenges' parameters, and no
    /// token echoed.
    fn across(&self, results: &mut Vec<(&'static str, Outcome)>) {
        let seen = self.seen.borrow();
        let steps: Vec<(&Seen, Challenge)> = seen
            .iter()
            .filter_map(|s| s.expected_challenge().map(|c| (s, c)))
            .filter(|(s, _)| matches!(&s.expect, AuthExpect::Step { status, .. } if *status == s.response.status))
            .collect();
        let param = |pred: &Judge<'_>| -> Outcome {
            if steps.is_empty() {
                return Outcome::Skip(
                    "no refusal came as the model says, to look at its challenge".into(),
                );
            }
            steps
                .iter()
                .find_map(|(s, want)| {
                    pred(s, want, Challenge::of(&s.response)).map(|r| s.failure(r))
                })
                .unwrap_or(Outcome::Pass)
        };
        results.push((
            "auth.no-credentials-no-error",
            param(&|s, want, got| {
                let got = got?;
                (want.get("error").is_none() && s.response.status == 401)
                    .then(|| {
                        got.get("error")
                            .map(|e| format!("{}: error={e:?} though no credentials came", s.label))
                    })
                    .flatten()
            }),
        ));
        results.push((
            "auth.challenge-scope",
            param(&|s, want, got| {
                (s.response.status == 401
                    && want.get("scope").is_some()
                    && got.as_ref().and_then(|g| g.get("scope")).is_none())
                .then(|| format!("{}: the 401 challenge has no scope", s.label))
            }),
        ));
        results.push((
            "auth.invalid-token-error",
            param(&|s, want, got| {
                let error = got.as_ref().and_then(|g| g.get("error"));
                (want.get("error") == Some("invalid_token") && error != Some("invalid_token")).then(
                    || {
                        format!(
                            "{}: the challenge's error is {error:?}, not \"invalid_token\"",
                            s.label
                        )
                    },
                )
            }),
        ));
        let resource = &self.setup_resource();
        results.push((
            "auth.challenge-metadata",
            param(&|s, want, got| {
                let named = got.as_ref().and_then(|g| g.get("resource_metadata"));
                match (want.get("resource_metadata"), named) {
                    (Some(_), None) => Some(format!(
                        "{}: the challenge has no resource_metadata",
                        s.label
                    )),
                    (Some(_), Some(url)) => {
                        let served = seen.iter().any(|d| {
                            d.request.method == "GET"
                                && d.response.status == 200
                                && url.ends_with(&d.request.target)
                                && serde_json::from_slice::<Value>(&d.response.body)
                                    .is_ok_and(|v| v["resource"] == resource.as_str())
                        });
                        (!served).then(|| {
                            format!(
                                "{}: resource_metadata {url:?} served no document for {resource}",
                                s.label
                            )
                        })
                    }
                    _ => None,
                }
            }),
        ));
        if let Some((_, outcome)) = results
            .iter_mut()
            .find(|(id, _)| *id == "auth.no-offline-access")
            && *outcome == Outcome::Pass
            && let Some((s, _)) = steps.iter().find(|(s, _)| {
                Challenge::of(&s.response)
                    .and_then(|c| {
                        c.get("scope")
                            .map(|v| v.split(' ').any(|x| x == "offline_access"))
                    })
                    .unwrap_or(false)
            })
        {
            *outcome = s.failure(format!(
                "{}: the challenge's scope names offline_access",
                s.label
            ));
        }
        // What must never be shown is the test kit's (row A8), taken from
        // every request sent: a token echoed in a later answer counts too.
        let secrets: Vec<String> = seen
            .iter()
            .flat_map(|s| mcp_reference_testkit::http_auth::secrets(&s.request))
            .collect();
        let echoed = seen.iter().find(|s| {
            let mut text = String::from_utf8_lossy(&s.response.body).into_owned();
            for (n, v) in &s.response.headers {
                text.push_str(&format!("\n{n}: {v}"));
            }
            secrets.iter().any(|part| text.contains(part.as_str()))
        });
        results.push((
            "auth.no-echo",
            match echoed {
                Some(s) => s.failure(format!(
                    "{}: the response holds part of a token the check sent",
                    s.label
                )),
                None => Outcome::Pass,
            },
        ));
    }

    pub(super) fn setup_resource(&self) -> String {
        self.check.setup.resource.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_parse_quoted_and_bare_values() {
        let c = Challenge::parse(
            r#"Bearer error="invalid_token", scope="a b", resource_metadata="http://h/x?y=\"z\"", realm=mcp"#,
        );
        assert_eq!(c.scheme, "Bearer");
        assert_eq!(c.get("error"), Some("invalid_token"));
        assert_eq!(c.get("scope"), Some("a b"));
        assert_eq!(c.get("resource_metadata"), Some("http://h/x?y=\"z\""));
        assert_eq!(c.get("realm"), Some("mcp"));
        assert_eq!(Challenge::parse("Bearer").params, vec![]);
    }
}
