//! The HTTP test vectors (`vectors/http.jsonl`, and with `--fixture
//! http-auth` the authorization vectors `vectors/http-auth.jsonl`, built in;
//! docs/vectors.md, "HTTP vectors") replayed against a running Streamable
//! HTTP server: `check --vectors --http URL`. Each vector is one request, sent on a fresh
//! connection exactly as written (its `{authority}` replaced by the URL's
//! `host:port`), and its response judged at the vector's own level and at
//! `textbook` and `canonical`:
//!
//! | level | passes when |
//! | --- | --- |
//! | `must`, `should` | the status is `expect.status` where the specification fixes one (else any); when `expect` names an outcome, the body's JSON-RPC response (as `application/json`, or among the events of a `text/event-stream`) is what [`super::format::meets`] says; the authorization vectors' `challenge` (the `WWW-Authenticate` parameters), `members` (the metadata document's) and `absent` (no part of a token sent comes back, row A8) hold |
//! | `textbook` | the status, and the body's JSON equals the reference's but for the error's wording and `data` ([`super::format::textbook_equal`]); an empty body where the reference's is empty; where the reference sent `allow` (a 405), the same methods (`allow_matches`) |
//! | `canonical` | the status, the `content-type` and the body bytes are the reference's, and `allow` as at `textbook` |
//!
//! The report has one line per level; the exit code rests on `must` alone
//! unless `--level` asks for more, as for the stdio vectors.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::format::LEVELS;
use crate::http_client::{self, Request, Response, Url};

/// The HTTP vectors, as committed.
pub const HTTP_VECTORS: &str = include_str!("../../../vectors/http.jsonl");

/// The authorization vectors (rows A1 to A8), as committed, for the
/// `http-auth` fixture (issue 39).
pub const HTTP_AUTH_VECTORS: &str = include_str!("../../../vectors/http-auth.jsonl");

/// The vectors of an HTTP fixture (`None`: `http`).
pub fn http_vectors(fixture: Option<&str>) -> Result<(&'static str, &'static str), String> {
    match fixture.unwrap_or("http") {
        "http" => Ok(("vectors/http.jsonl", HTTP_VECTORS)),
        "http-auth" => Ok(("vectors/http-auth.jsonl", HTTP_AUTH_VECTORS)),
        other => Err(format!(
            "no HTTP fixture {other:?}: the HTTP fixtures are http and http-auth"
        )),
    }
}

/// How to replay.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// The endpoint URL; its path replaces the vectors' `/mcp`.
    pub url: String,
    /// The HTTP fixture (`http`, the default, or `http-auth`).
    pub fixture: Option<String>,
    /// One exchange's deadline.
    pub timeout: Duration,
    /// The whole run's deadline.
    pub deadline: Duration,
    /// The level the exit code rests on (and every level before it).
    pub level: String,
}

/// One vector's outcome.
#[derive(Debug, Clone)]
pub struct HttpOutcome {
    /// The vector's id.
    pub id: String,
    /// Its level.
    pub level: String,
    /// Its source.
    pub source: String,
    /// The levels it fails (empty: passed); `None`: not run (the deadline).
    pub failed: Option<Vec<&'static str>>,
    /// What came back, for a failure.
    pub got: String,
}

/// The replay's report.
#[derive(Debug, Clone)]
pub struct HttpReport {
    /// Every vector, in file order.
    pub outcomes: Vec<HttpOutcome>,
    /// The level the exit code rests on.
    pub level: String,
    /// The vectors' file (`vectors/http.jsonl`, `vectors/http-auth.jsonl`).
    pub file: &'static str,
    /// Why none was run: the server's data is not the fixture's
    /// (`served`).
    pub unserved: Option<String>,
}

fn levels_of(level: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = LEVELS
        .iter()
        .copied()
        .filter(|l| *l == level || *l == "textbook" || *l == "canonical")
        .collect();
    out.dedup();
    out
}

/// Judges one response at every level the vector is judged at.
fn judge(v: &Value, response: &Response) -> Vec<&'static str> {
    let expect = v.get("expect").cloned().unwrap_or_default();
    let want = v.get("response").cloned().unwrap_or_default();
    let status = expect.get("status").and_then(Value::as_u64);
    let got_body = response
        .reply()
        .map(|r| serde_json::to_vec(&r).unwrap_or_default())
        .unwrap_or_default();
    let own = |_: &str| -> bool {
        if status.is_some_and(|s| s != u64::from(response.status)) {
            return false;
        }
        if !challenge_meets(expect.get("challenge"), response.header("www-authenticate"))
            || !members_meet(expect.get("members"), &response.body)
            || !absent(expect.get("absent"), response)
        {
            return false;
        }
        if expect.get("outcome").is_none() {
            return true;
        }
        // `meets` reads the id as raw text: hand it the body as received
        // when it is one JSON object, else the response found among events.
        let raw: &[u8] = if response.media_type() == "application/json" {
            &response.body
        } else {
            &got_body
        };
        super::format::meets(&expect, raw)
    };
    let level = v.get("level").and_then(Value::as_str).unwrap_or("must");
    let reference_body = want.get("body").and_then(Value::as_str).unwrap_or_default();
    levels_of(level)
        .into_iter()
        .filter(|l| {
            let ok = match *l {
                "canonical" => {
                    allow_matches(&want, response)
                        && want.get("status").and_then(Value::as_u64)
                            == Some(u64::from(response.status))
                        && want
                            .pointer("/headers/content-type")
                            .and_then(Value::as_str)
                            == response.header("content-type")
                        && response.body == reference_body.as_bytes()
                }
                "textbook" => {
                    allow_matches(&want, response)
                        && want.get("status").and_then(Value::as_u64)
                            == Some(u64::from(response.status))
                        && if reference_body.is_empty() {
                            response.body.is_empty()
                        } else if let Some(document) = not_json_rpc(reference_body) {
                            // A metadata document (A1): the same JSON value.
                            serde_json::from_slice::<Value>(&response.body).ok() == Some(document)
                        } else {
                            super::format::textbook_equal(reference_body.as_bytes(), &got_body)
                        }
                }
                other => own(other),
            };
            !ok
        })
        .collect()
}

/// Where the reference's response has an `allow` header (a 405: rows H2,
/// A2), the server's lists the same methods (RFC 9110 §10.2.1: a
/// comma-separated list; compared as a set, method names case-sensitive),
/// judged at `textbook` and `canonical`; without one, nothing is asked.
fn allow_matches(want: &Value, response: &Response) -> bool {
    let Some(reference) = want.pointer("/headers/allow").and_then(Value::as_str) else {
        return true;
    };
    let methods = |list: &str| -> std::collections::BTreeSet<String> {
        list.split(',')
            .map(|m| m.trim().to_owned())
            .filter(|m| !m.is_empty())
            .collect()
    };
    response
        .header("allow")
        .is_some_and(|got| methods(got) == methods(reference))
}

/// A reference body that is JSON but no JSON-RPC message (the Protected
/// Resource Metadata of A1), as its value.
fn not_json_rpc(body: &str) -> Option<Value> {
    serde_json::from_str::<Value>(body)
        .ok()
        .filter(|v| v.get("jsonrpc").is_none())
}

/// `expect.challenge` (the authorization vectors): the `WWW-Authenticate`
/// header is a `Bearer` challenge, its `error` parameter the one named
/// (`null`: none), and `scope` or `resource_metadata` present where
/// `true`.
fn challenge_meets(want: Option<&Value>, got: Option<&str>) -> bool {
    let Some(want) = want.and_then(Value::as_object) else {
        return true;
    };
    let Some(got) = got else { return false };
    let Some(params) = got
        .strip_prefix("Bearer")
        .filter(|r| r.is_empty() || r.starts_with(' '))
    else {
        return false;
    };
    let param = |name: &str| {
        params.split(',').find_map(|p| {
            let (n, v) = p.trim().split_once('=')?;
            (n.trim().eq_ignore_ascii_case(name)).then(|| v.trim().trim_matches('"').to_owned())
        })
    };
    want.iter().all(|(name, value)| match value {
        Value::Null => param(name).is_none(),
        Value::Bool(true) => param(name).is_some(),
        Value::String(s) => param(name).as_deref() == Some(s.as_str()),
        _ => true,
    })
}

/// `expect.members`: the body is a JSON object with these members equal.
fn members_meet(want: Option<&Value>, body: &[u8]) -> bool {
    let Some(want) = want.and_then(Value::as_object) else {
        return true;
    };
    let Ok(got) = serde_json::from_slice::<Value>(body) else {
        return false;
    };
    want.iter().all(|(k, v)| got.get(k) == Some(v))
}

/// `expect.absent` (row A8): none of these strings (a token's signature)
/// is anywhere in the response, its headers or its body.
fn absent(want: Option<&Value>, response: &Response) -> bool {
    let Some(want) = want.and_then(Value::as_array) else {
        return true;
    };
    let head: Vec<String> = response
        .headers
        .iter()
        .map(|(n, v)| format!("{n}: {v}"))
        .collect();
    let text = format!(
        "{}\n{}",
        head.join("\n"),
        String::from_utf8_lossy(&response.body)
    );
    want.iter()
        .filter_map(Value::as_str)
        .all(|s| !text.contains(s))
}

/// The request of vector `v`, for `url`.
fn request_of(v: &Value, url: &Url) -> Request {
    let r = v.get("request").cloned().unwrap_or_default();
    let text = |k: &str| {
        r.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let authority = url.authority.clone();
    let headers = r
        .get("headers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|h| {
            let name = h.get(0)?.as_str()?.to_owned();
            let value = h.get(1)?.as_str()?.replace("{authority}", &authority);
            Some((name, value.into_bytes()))
        })
        .collect();
    let target = text("target");
    let target = match target.strip_prefix("/mcp") {
        Some(rest) => format!("{}{rest}", url.path),
        None => target,
    };
    Request {
        method: text("method"),
        target,
        headers,
        body: text("body").into_bytes(),
    }
}

/// Replays every HTTP vector against `options.url`.
pub fn run_http(options: &HttpOptions) -> Result<HttpReport, String> {
    let url = Url::parse(&options.url)?;
    let ends = Instant::now() + options.deadline;
    let mut outcomes = Vec::new();
    let (name, vectors) = http_vectors(options.fixture.as_deref())?;
    let fixture = options.fixture.as_deref().unwrap_or("http");
    let unserved = served(fixture, vectors, &url, options);
    for line in vectors.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("{name}: {e}"))?;
        let field = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let mut outcome = HttpOutcome {
            id: field("id"),
            level: field("level"),
            source: field("source"),
            failed: None,
            got: String::new(),
        };
        if Instant::now() < ends && unserved.is_none() {
            let request = request_of(&v, &url);
            match http_client::send(&url, &request, options.timeout) {
                Ok(response) => {
                    let failed = judge(&v, &response);
                    if !failed.is_empty() {
                        outcome.got = format!(
                            "{} {}",
                            response.status,
                            String::from_utf8_lossy(&response.body)
                        );
                    }
                    outcome.failed = Some(failed);
                }
                Err(e) => {
                    outcome.got = e;
                    outcome.failed = Some(levels_of(&outcome.level));
                }
            }
        }
        outcomes.push(outcome);
    }
    Ok(HttpReport {
        outcomes,
        level: options.level.clone(),
        file: name,
        unserved,
    })
}

/// Whether the server holds the HTTP fixture's data
/// ([`crate::check::fixture::holds`]): each probe POSTed as a conforming
/// client sends it for the fixture's configuration
/// ([`mcp_reference_testkit::http::conforming`], its mirrored headers
/// included), with, where that configuration has authorization
/// ([`mcp_reference_testkit::model::auth::settings`]: `http-auth`), the
/// `Authorization` of the fixture's first vector that sends one and was
/// answered 200 (a token the fixture accepts). Without authorization a
/// conforming client sends no token: the `http` fixture's own bearer
/// tokens (row A9's) are what its vectors test, never credentials, and a
/// server that reads them as a user (`faulty_http_server
/// --user-from-token`) must fail those vectors, not have its data judged
/// by them. `Some`: why its vectors cannot be run, naming the
/// configuration to serve.
fn served(fixture: &str, vectors: &str, url: &Url, options: &HttpOptions) -> Option<String> {
    let config = crate::check::fixture::config(fixture)?;
    let authorizes = mcp_reference_testkit::model::auth::settings(&config).is_some();
    let token = vectors.lines().filter(|_| authorizes).find_map(|line| {
        let v: Value = serde_json::from_str(line).ok()?;
        if v.pointer("/response/status").and_then(Value::as_u64) != Some(200) {
            return None;
        }
        let headers = v.pointer("/request/headers")?.as_array()?;
        headers.iter().find_map(|h| {
            let name = h.get(0)?.as_str()?;
            let value = h.get(1)?.as_str()?;
            name.eq_ignore_ascii_case("authorization")
                .then(|| (name.to_owned(), value.as_bytes().to_vec()))
        })
    });
    let listen = mcp_reference_testkit::model::http::Listen {
        port: 0,
        loopback: true,
    };
    let found = crate::check::fixture::holds(fixture, &mut |body, _| {
        let mut headers = mcp_reference_testkit::http::conforming(&config, listen, body);
        headers.retain(|(n, _)| !n.eq_ignore_ascii_case("host"));
        headers.insert(0, ("Host".into(), url.authority.clone().into_bytes()));
        headers.extend(token.clone());
        let request = Request {
            method: "POST".into(),
            target: url.path.clone(),
            headers,
            body: body.to_vec(),
        };
        http_client::send(url, &request, options.timeout)
            .ok()?
            .reply()
    });
    found.err().map(|why| {
        format!(
            "{why}. Its vectors say what the reference answered with that data, so none was \
             run: start the server with that configuration (mcp-reference serve --http {} \
             --config {}) and replay again",
            url.authority,
            crate::check::fixture::file(fixture)
        )
    })
}

impl HttpReport {
    /// (level, passed, judged) for each level.
    pub fn per_level(&self) -> Vec<(&'static str, usize, usize)> {
        LEVELS
            .iter()
            .map(|l| {
                let judged: Vec<&HttpOutcome> = self
                    .outcomes
                    .iter()
                    .filter(|o| o.failed.is_some() && levels_of(&o.level).contains(l))
                    .collect();
                let passed = judged
                    .iter()
                    .filter(|o| !o.failed.as_ref().is_some_and(|f| f.contains(l)))
                    .count();
                (*l, passed, judged.len())
            })
            .collect()
    }

    /// 0 every vector passed at the levels up to `level`, 1 one failed
    /// there, 3 none failed but the deadline cut some.
    pub fn exit_code(&self) -> u8 {
        let upto = LEVELS.iter().position(|l| *l == self.level).unwrap_or(0);
        let counted = LEVELS.get(..=upto).unwrap_or_default();
        let failed = self
            .per_level()
            .iter()
            .any(|(l, p, n)| counted.contains(l) && p < n);
        if failed {
            1
        } else if self.outcomes.iter().any(|o| o.failed.is_none()) {
            3
        } else {
            0
        }
    }

    /// The report: each failed vector, then one line per level.
    pub fn text(&self) -> String {
        let mut out = String::new();
        if let Some(why) = &self.unserved {
            out.push_str(&format!(
                "NOT RUN: the {} vectors of {}: {why}\n",
                self.outcomes.len(),
                self.file
            ));
        }
        for o in self.outcomes.iter().filter(|_| self.unserved.is_none()) {
            match &o.failed {
                Some(f) if !f.is_empty() => out.push_str(&format!(
                    "FAIL {} ({} {}): fails {}\n  got: {}\n",
                    o.id,
                    o.level,
                    o.source,
                    f.join(", "),
                    o.got.chars().take(400).collect::<String>()
                )),
                None => out.push_str(&format!("NOT RUN {} (the deadline)\n", o.id)),
                _ => {}
            }
        }
        let lines: Vec<String> = self
            .per_level()
            .iter()
            .map(|(l, p, n)| format!("{l} {p}/{n}"))
            .collect();
        out.push_str(&format!("http vectors: {}\n", lines.join(", ")));
        out.push_str(&format!(
            "verdict: {} (exit code rests on {} and the levels before it)\n",
            match self.exit_code() {
                0 => "PASS",
                1 => "FAIL",
                _ if self.unserved.is_some() =>
                    "INCOMPLETE (the server's data is not the fixture's)",
                _ => "INCOMPLETE",
            },
            self.level
        ));
        out
    }
}
