//! The checks themselves, in groups that share an exchange, and the
//! context they run in.
//!
//! Most groups talk to one shared server process, one request at a time:
//! the reply to a request is the next response on stdout (lines that are
//! not responses are set aside for the `stdout.*` checks). A request that
//! gets no reply within the timeout, or a process that exits, retires the
//! shared process; the next group starts a fresh one. So a server that
//! never answers some requests costs one timeout per such request, and
//! every other check still runs.
//!
//! Three groups need a process of their own: `notifications.silent` and
//! the `eof.*` checks close stdin to count every reply, and
//! `initialize.answer` may switch a dual-era server into a legacy session;
//! `stateless.fresh-and-later` (`super::stateless`) needs two.
//!
//! The `robust.*` checks send a hostile line and then a request with an id
//! of its own, and wait for the reply with that id, since the server may
//! answer the hostile line once, or not at all.
//!
//! Spec: 2026-07-28 `basic/transports/stdio.mdx` (one message per line,
//! stdout carries only MCP messages, shutdown by closing stdin); each
//! check's own section is in [`super::catalog`].

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{Value, json};

pub use super::ctx::{Ctx, Results};
use super::ctx::{GRACE, NoReply, SHOWN, Seen, fail, joined, skip};
use super::jsonrpc::code_level;
use super::report::{Failure, Outcome};
use super::wire::{self, Kind, Reply, cache_hint_problems};
use crate::process::{MAX_LINE, Next};
use mcp_reference_testkit::schema::Schema;

fn params_with(meta: Value) -> Value {
    json!({ "_meta": meta })
}

fn meta_with(key: &str, value: Option<Value>) -> Value {
    let mut meta = wire::meta();
    if let Some(obj) = meta.as_object_mut() {
        match value {
            Some(v) => obj.insert(format!("io.modelcontextprotocol/{key}"), v),
            None => obj.remove(&format!("io.modelcontextprotocol/{key}")),
        };
    }
    meta
}

/// Runs `cases` (each a request line) on the shared process and passes
/// when every reply satisfies `judge` (which returns why not).
fn each_case(
    cx: &mut Ctx,
    cases: &[(Vec<u8>, Option<&str>)],
    judge: impl Fn(&Reply) -> Option<String>,
) -> Outcome {
    for (line, method) in cases {
        match cx.ask(line, *method) {
            Err(e) => return cx.no_reply(&e, line),
            Ok(reply) => {
                if let Some(why) = judge(&reply) {
                    return fail(why, line, Some(&reply));
                }
            }
        }
    }
    Outcome::Pass
}

fn expect_code(code: i64) -> impl Fn(&Reply) -> Option<String> {
    move |reply| match reply.error_code() {
        Some(c) if c == code => None,
        _ => Some(format!("expected error {code}, got {}", reply.gist())),
    }
}

/// `discover.result`, `discover.server-info`.
pub fn discover(cx: &mut Ctx) -> Results {
    let req = wire::request("1", "server/discover", &wire::params());
    let reply = match cx.ask(&req, Some("server/discover")) {
        Ok(reply) => reply,
        Err(e) => {
            cx.facts.discover_ok = Some(false);
            return vec![
                ("discover.result", cx.no_reply(&e, &req)),
                ("discover.server-info", skip("server/discover got no reply")),
            ];
        }
    };
    let Some(result) = reply.result().filter(|r| r.is_object()) else {
        cx.facts.discover_ok = Some(false);
        return vec![
            (
                "discover.result",
                fail(
                    format!("server/discover got {}, not a result object", reply.gist()),
                    &req,
                    Some(&reply),
                ),
            ),
            (
                "discover.server-info",
                skip("server/discover gave no result"),
            ),
        ];
    };
    cx.facts.discover_ok = Some(true);
    let versions = result.get("supportedVersions").and_then(Value::as_array);
    cx.facts.supported = versions
        .map(|v| {
            v.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let capabilities = result.get("capabilities").and_then(Value::as_object);
    cx.facts.tools = capabilities.map(|c| c.contains_key("tools"));
    cx.facts.capabilities = super::features::capabilities(result);
    let mut problems = Vec::new();
    if result.get("resultType") != Some(&Value::from("complete")) {
        problems.push("resultType is not \"complete\"".to_string());
    }
    match versions {
        None => problems.push("supportedVersions is missing or not an array".into()),
        Some(v) if !v.iter().all(Value::is_string) => {
            problems.push("supportedVersions holds something other than strings".into())
        }
        Some(_) if !cx.facts.supported.iter().any(|v| v == wire::VERSION) => {
            problems.push(format!("supportedVersions does not list {}", wire::VERSION))
        }
        Some(_) => {}
    }
    if capabilities.is_none() {
        problems.push("capabilities is missing or not an object".into());
    }
    problems.extend(cache_hint_problems(result));
    let result_outcome = if problems.is_empty() {
        Outcome::Pass
    } else {
        fail(problems.join("; "), &req, Some(&reply))
    };
    let info = &result["_meta"]["io.modelcontextprotocol/serverInfo"];
    let info_outcome = if info["name"].is_string() && info["version"].is_string() {
        Outcome::Pass
    } else {
        fail(
            "the result's _meta has no io.modelcontextprotocol/serverInfo with a string name and version",
            &req,
            Some(&reply),
        )
    };
    vec![
        ("discover.result", result_outcome),
        ("discover.server-info", info_outcome),
    ]
}

/// The judgement of a `-32022` error's `data` by VER-01 (an
/// `UnsupportedProtocolVersionError` lists the supported versions and
/// names the one asked for), for `version.unsupported` and for the vectors
/// whose `expect` has `requested` (`crate::vectors::meets`): `data.supported`
/// a non-empty list of strings and `data.requested` the version `asked`.
/// `None`: it passes; `Some`: why not.
pub(crate) fn unsupported_verdict(reply: &Value, asked: &str) -> Option<String> {
    let data = reply.pointer("/error/data");
    let supported = data
        .and_then(|d| d.get("supported"))
        .and_then(Value::as_array);
    if !supported.is_some_and(|s| !s.is_empty() && s.iter().all(Value::is_string)) {
        return Some("error.data.supported is not a non-empty list of versions".into());
    }
    if data
        .and_then(|d| d.get("requested"))
        .and_then(Value::as_str)
        != Some(asked)
    {
        return Some(format!("error.data.requested is not {asked:?}"));
    }
    None
}

/// `version.unsupported`.
pub fn version(cx: &mut Ctx) -> Results {
    let mut outcome = Outcome::Pass;
    for (i, asked) in ["1900-01-01", "9999-12-31"].into_iter().enumerate() {
        let params = params_with(meta_with("protocolVersion", Some(asked.into())));
        let req = wire::request(&format!("{}", 10 + i), "server/discover", &params);
        // M7: a version not served (docs/rows.json).
        let want = super::jsonrpc::code_level("M7").0;
        let judge = |reply: &Reply| -> Option<String> {
            if reply.error_code() != Some(want) {
                return Some(format!("expected error {want}, got {}", reply.gist()));
            }
            unsupported_verdict(&reply.value, asked)
        };
        outcome = each_case(cx, &[(req, Some("server/discover"))], judge);
        if outcome != Outcome::Pass {
            break;
        }
    }
    vec![("version.unsupported", outcome)]
}

/// `meta.missing`, `meta.protocol-version`, `meta.client-capabilities`.
pub fn meta(cx: &mut Ctx) -> Results {
    let discover = Some("server/discover");
    let no_params = br#"{"jsonrpc":"2.0","id":20,"method":"server/discover"}"#.to_vec();
    let missing = vec![
        (no_params, discover),
        (wire::request("21", "server/discover", &json!({})), discover),
        (
            wire::request("22", "server/discover", &json!({"_meta": null})),
            discover,
        ),
        (
            wire::request("23", "server/discover", &json!({"_meta": wire::VERSION})),
            discover,
        ),
    ];
    let version = [
        None,
        Some(json!(20260728)),
        Some(Value::Null),
        Some(json!([wire::VERSION])),
    ];
    let version: Vec<_> = version
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let params = params_with(meta_with("protocolVersion", v));
            (
                wire::request(&format!("{}", 30 + i), "server/discover", &params),
                discover,
            )
        })
        .collect();
    let caps = [None, Some(json!("all")), Some(json!([])), Some(Value::Null)];
    let caps: Vec<_> = caps
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let params = params_with(meta_with("clientCapabilities", v));
            (
                wire::request(&format!("{}", 40 + i), "server/discover", &params),
                discover,
            )
        })
        .collect();
    vec![
        (
            "meta.missing",
            each_case(cx, &missing, expect_code(code_level("M1").0)),
        ),
        (
            "meta.protocol-version",
            each_case(cx, &version, expect_code(code_level("M5").0)),
        ),
        (
            "meta.client-capabilities",
            each_case(cx, &caps, expect_code(code_level("M8").0)),
        ),
    ]
}

/// `method.unknown`.
pub fn method(cx: &mut Ctx) -> Results {
    let method = "mcp-reference-check/no-such-method";
    let req = wire::request("50", method, &wire::params());
    vec![(
        "method.unknown",
        each_case(cx, &[(req, Some(method))], expect_code(code_level("D4").0)),
    )]
}

/// `ids.echo`, `ids.big-integer`.
pub fn ids(cx: &mut Ctx) -> Results {
    let long = "x".repeat(4096);
    let echo: Vec<String> = [
        "0",
        "7",
        "-1",
        "9007199254740993",
        "9223372036854775807",
        "-9223372036854775808",
        "18446744073709551615",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain(
        [
            "",
            "0",
            "req-1",
            "é ☃ 😀",
            "quote\" backslash\\ tab\t newline\n",
            &long,
        ]
        .iter()
        .map(|s| wire::string_id(s)),
    )
    .collect();
    let big: Vec<String> = [
        "18446744073709551616",
        "-18446744073709551617",
        "123456789012345678901234567890123456789",
        &format!("1{}", "0".repeat(100)),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    vec![
        ("ids.echo", echo_ids(cx, &echo)),
        ("ids.big-integer", echo_ids(cx, &big)),
    ]
}

fn echo_ids(cx: &mut Ctx, ids: &[String]) -> Outcome {
    for id in ids {
        let req = wire::request(id, "server/discover", &wire::params());
        match cx.ask(&req, Some("server/discover")) {
            Err(e) => return cx.no_reply(&e, &req),
            Ok(reply) if !wire::same_id(id, reply.id.as_deref()) => {
                let got = reply.id.as_deref().unwrap_or("no id");
                return fail(
                    format!(
                        "sent id {}, got id {}",
                        wire::show(id.as_bytes(), 60),
                        wire::show(got.as_bytes(), 60)
                    ),
                    &req,
                    Some(&reply),
                );
            }
            Ok(_) => {}
        }
    }
    Outcome::Pass
}

/// `notifications.silent`: notifications and then one request, on a
/// process of its own; stdin is closed after the request's reply and every
/// line up to the end is counted.
pub fn notifications(cx: &mut Ctx) -> Results {
    let notes: Vec<Vec<u8>> = vec![
        wire::notification(
            "notifications/cancelled",
            &json!({"requestId": "never-sent", "reason": "mcp-reference check", "_meta": wire::meta()}),
        ),
        wire::notification("notifications/mcp-reference-check/unknown", &json!({})),
        wire::notification("server/discover", &wire::params()),
        wire::notification("notifications/cancelled", &json!({})),
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_vec(),
    ];
    let sentinel_id = wire::string_id("after-notifications");
    let sentinel = wire::request(&sentinel_id, "server/discover", &wire::params());
    let shown = notes
        .iter()
        .chain(std::iter::once(&sentinel))
        .map(|l| wire::show(l, SHOWN))
        .collect::<Vec<_>>()
        .join("\n");
    let mut p = match cx.spawn() {
        Ok(p) => p,
        Err(e) => return vec![("notifications.silent", cx.no_reply(&e, shown.as_bytes()))],
    };
    let mut lines: Vec<&[u8]> = notes.iter().map(Vec::as_slice).collect();
    lines.push(&sentinel);
    p.send(joined(&lines));
    let mut replies = Vec::new();
    let first = cx.await_reply(
        &mut p,
        None,
        None,
        cx.until(cx.waits().first),
        &lines,
        false,
    );
    if let Ok(reply) = first {
        replies.push(reply);
        p.close_input();
        let deadline = cx.until(cx.waits().reply);
        while let Ok(reply) = cx.await_reply(&mut p, None, None, deadline, &lines, false) {
            replies.push(reply);
        }
    }
    cx.retire(p, Duration::ZERO);
    let (answered, extra): (Vec<&Reply>, Vec<&Reply>) = replies
        .iter()
        .partition(|r| wire::same_id(&sentinel_id, r.id.as_deref()));
    let outcome = match (answered.len(), extra.first()) {
        (_, Some(first)) => Outcome::Fail(Failure {
            reason: format!(
                "{} repl{} to {} notifications and one request: the notifications were answered",
                replies.len(),
                if replies.len() == 1 { "y" } else { "ies" },
                notes.len()
            ),
            request: Some(shown),
            reply: Some(wire::show(&first.line, SHOWN)),
        }),
        (0, None) => skip(
            "the server answered neither the notifications nor the request sent after them, so nothing shows it read them",
        ),
        _ => Outcome::Pass,
    };
    vec![("notifications.silent", outcome)]
}

/// `tools.list`, `tools.call-unknown`, `tools.list-deterministic`.
pub fn tools(cx: &mut Ctx) -> Results {
    if cx.facts.tools == Some(false) {
        let why = "server/discover advertises no tools capability";
        return vec![
            ("tools.list", skip(why)),
            ("tools.list-deterministic", skip(why)),
            ("tools.call-unknown", skip(why)),
        ];
    }
    let list = Some("tools/list");
    let first_req = wire::request(&wire::string_id("tools-1"), "tools/list", &wire::params());
    let (list_outcome, first) = match cx.ask(&first_req, list) {
        Err(e) => (cx.no_reply(&e, &first_req), None),
        Ok(reply) => match reply.result().filter(|r| r.is_object()) {
            None => (
                fail(
                    format!("tools/list got {}, not a result object", reply.gist()),
                    &first_req,
                    Some(&reply),
                ),
                None,
            ),
            Some(result) => {
                let mut problems = cache_hint_problems(result);
                let tools = result.get("tools").and_then(Value::as_array).cloned();
                if tools.is_none() {
                    problems.insert(0, "tools is missing or not an array".into());
                }
                let outcome = if problems.is_empty() {
                    Outcome::Pass
                } else {
                    fail(problems.join("; "), &first_req, Some(&reply))
                };
                (outcome, tools)
            }
        },
    };
    let names: Vec<&str> = first
        .iter()
        .flatten()
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .collect();
    let mut name = "mcp-reference-check-no-such-tool".to_string();
    while names.contains(&name.as_str()) {
        name.push('-');
    }
    let call = wire::request(
        "70",
        "tools/call",
        &json!({"_meta": wire::meta(), "name": name, "arguments": {}}),
    );
    let call_outcome = match cx.ask(&call, Some("tools/call")) {
        Err(e) => cx.no_reply(&e, &call),
        Ok(reply) if reply.result().is_some() => fail(
            "tools/call of an unknown tool got a result; the reference answers a -32602 error \
             (server/tools.mdx lists an unknown tool among the protocol errors, with no MUST)",
            &call,
            Some(&reply),
        ),
        Ok(reply) => match expect_code(code_level("T3").0)(&reply) {
            None => Outcome::Pass,
            Some(why) => fail(why, &call, Some(&reply)),
        },
    };
    // Other requests came between; the list must not have changed.
    let again_req = wire::request(&wire::string_id("tools-2"), "tools/list", &wire::params());
    let same_outcome = match &first {
        None => skip("the first tools/list gave no tools array to compare with"),
        Some(first) => match cx.ask(&again_req, list) {
            Err(e) => cx.no_reply(&e, &again_req),
            Ok(reply) => match reply.result().and_then(|r| r.get("tools")) {
                Some(again) if again == &Value::Array(first.clone()) => Outcome::Pass,
                _ => fail(
                    "a second tools/list gave other tools, or another order, than the first",
                    &again_req,
                    Some(&reply),
                ),
            },
        },
    };
    vec![
        ("tools.list", list_outcome),
        ("tools.list-deterministic", same_outcome),
        ("tools.call-unknown", call_outcome),
    ]
}

/// The judgement of an answer to `initialize` by VER-07, for
/// `initialize.answer` and for the vectors whose `expect` is `versions`
/// (`crate::vectors::meets`): a legacy `InitializeResult` (a string
/// `protocolVersion`: a dual-era server, which VER-07 does not bind), or
/// an error whose message or `data` names one of `versions`. `None`: it
/// passes; `Some`: why not.
pub(crate) fn initialize_verdict(reply: &Value, versions: &[String]) -> Option<String> {
    if let Some(result) = reply.get("result") {
        return (!result.get("protocolVersion").is_some_and(Value::is_string)).then(|| {
            "initialize got a result that is not an InitializeResult (no protocolVersion)".into()
        });
    }
    let Some(error) = reply.get("error") else {
        return Some("initialize got a reply that is neither a result nor an error".into());
    };
    let text = format!(
        "{} {}",
        error.get("message").unwrap_or(&Value::Null),
        error.get("data").unwrap_or(&Value::Null)
    );
    (!versions.iter().any(|v| text.contains(v.as_str()))).then(|| {
        format!(
            "initialize got an error that names none of the supported versions ({})",
            versions.join(", ")
        )
    })
}

/// `initialize.answer`, on a process of its own.
pub fn initialize(cx: &mut Ctx) -> Results {
    let req = wire::request(
        "1",
        "initialize",
        &json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "mcp-reference-check", "version": env!("CARGO_PKG_VERSION")}
        }),
    );
    let mut p = match cx.spawn() {
        Ok(p) => p,
        Err(e) => return vec![("initialize.answer", cx.no_reply(&e, &req))],
    };
    p.send(joined(&[&req]));
    let result = cx.await_reply(
        &mut p,
        Some("initialize"),
        None,
        cx.until(cx.waits().first),
        &[&req],
        true,
    );
    let answered = result.is_ok();
    cx.retire(
        p,
        if answered {
            GRACE.min(cx.waits().first)
        } else {
            Duration::ZERO
        },
    );
    let reply = match result {
        Err(e) => return vec![("initialize.answer", cx.no_reply(&e, &req))],
        Ok(reply) => reply,
    };
    let mut versions = cx.facts.supported.clone();
    if versions.is_empty() {
        versions.push(wire::VERSION.into());
    }
    let outcome = match initialize_verdict(&reply.value, &versions) {
        None => Outcome::Pass,
        Some(why) => fail(why, &req, Some(&reply)),
    };
    vec![("initialize.answer", outcome)]
}

/// How many requests `eof.answers-all` writes at once.
const PIPELINED: usize = 40;

/// `eof.answers-all`, `eof.exits`: requests written at once, then
/// end-of-file, on a process of its own.
pub fn eof(cx: &mut Ctx) -> Results {
    let bad_version = params_with(meta_with("protocolVersion", Some("1900-01-01".into())));
    let mut ids = Vec::new();
    let mut lines = Vec::new();
    for i in 0..PIPELINED {
        let id = if i % 2 == 0 {
            format!("{}", 1000 + i)
        } else {
            wire::string_id(&format!("pipelined-{i}"))
        };
        let line = match i % 4 {
            0 => wire::request(&id, "server/discover", &wire::params()),
            1 => wire::request(&id, "tools/list", &wire::params()),
            2 => wire::request(&id, "mcp-reference-check/no-such-method", &wire::params()),
            _ => wire::request(&id, "server/discover", &bad_version),
        };
        ids.push(id);
        lines.push(line);
    }
    let shown = format!(
        "{} requests in one write, then end-of-file; the first: {}",
        PIPELINED,
        wire::show(lines.first().map(Vec::as_slice).unwrap_or_default(), SHOWN)
    );
    let mut p = match cx.spawn() {
        Ok(p) => p,
        Err(e) => {
            let outcome = cx.no_reply(&e, shown.as_bytes());
            return vec![("eof.answers-all", outcome.clone()), ("eof.exits", outcome)];
        }
    };
    let refs: Vec<&[u8]> = lines.iter().map(Vec::as_slice).collect();
    p.send(joined(&refs));
    p.close_input();
    let deadline = cx.until(cx.waits().first);
    let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
    let mut strays = 0;
    let ended = loop {
        match p.next(deadline) {
            Next::Line(line) => {
                let method = match wire::classify(&line.bytes) {
                    Kind::Response(reply) => {
                        match ids
                            .iter()
                            .position(|id| wire::same_id(id, reply.id.as_deref()))
                        {
                            Some(i) => {
                                *counts.entry(i).or_default() += 1;
                                method_of(lines.get(i))
                            }
                            None => {
                                strays += 1;
                                None
                            }
                        }
                    }
                    _ => None,
                };
                cx.keep(line, method);
            }
            Next::Timeout => break false,
            Next::Closed => break true,
        }
    };
    let status = p.wait_exit(deadline);
    cx.retire(p, Duration::ZERO);
    let missing: Vec<&String> = ids
        .iter()
        .enumerate()
        .filter(|(i, _)| !counts.contains_key(i))
        .map(|(_, id)| id)
        .collect();
    let twice = counts.values().filter(|&&n| n > 1).count();
    // Every request answered exactly once, and no reply to a request never
    // sent; how the server ended is eof.exits' (told here too, as context,
    // when this check fails).
    let answers = if missing.is_empty() && twice == 0 && strays == 0 {
        Outcome::Pass
    } else {
        let mut why = Vec::new();
        if !missing.is_empty() {
            why.push(format!(
                "{} of {} requests got no reply (ids {})",
                missing.len(),
                PIPELINED,
                missing
                    .iter()
                    .take(5)
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
                    + if missing.len() > 5 { ", ..." } else { "" }
            ));
        }
        if twice > 0 {
            why.push(format!("{twice} requests were answered more than once"));
        }
        if strays > 0 {
            why.push(format!(
                "{strays} replies carried an id that was never sent"
            ));
        }
        if !ended {
            why.push(format!(
                "stdout was still open {} ms after end-of-file",
                cx.waits().first.as_millis()
            ));
        }
        if let Some(status) = status.filter(|s| !s.success()) {
            why.push(format!("the server exited ({status})"));
        }
        Outcome::Fail(Failure {
            reason: why.join("; "),
            request: Some(shown.clone()),
            reply: None,
        })
    };
    let exits = match status {
        Some(status) if status.success() => Outcome::Pass,
        Some(status) => Outcome::Fail(Failure {
            reason: format!(
                "the server exited ({status}) once its stdin was closed: end-of-file is the \
                 normal end of a stdio session, not an error"
            ),
            request: Some(shown.clone()),
            reply: None,
        }),
        None => Outcome::Fail(Failure {
            reason: format!(
                "still running {} ms after its stdin was closed",
                cx.waits().first.as_millis()
            ),
            request: Some(shown),
            reply: None,
        }),
    };
    vec![("eof.answers-all", answers), ("eof.exits", exits)]
}

fn method_of(line: Option<&Vec<u8>>) -> Option<String> {
    let value: Value = serde_json::from_slice(line?).ok()?;
    value.get("method")?.as_str().map(str::to_string)
}

/// `robust.*`: a hostile line, then a request with an id of its own on
/// the shared process.
pub fn robust(cx: &mut Ctx) -> Results {
    let meta = wire::meta().to_string();
    let oversized = {
        let mut line = format!(
            r#"{{"jsonrpc":"2.0","id":"oversized","method":"server/discover","params":{{"_meta":{meta},"padding":""#
        )
        .into_bytes();
        line.resize(line.len() + 8 * 1024 * 1024, b'x');
        line.extend_from_slice(br#""}}"#);
        line
    };
    let not_utf8 = {
        let mut line = format!(
            r#"{{"jsonrpc":"2.0","id":"not-utf8","method":"server/discover","params":{{"_meta":{meta},"note":""#
        )
        .into_bytes();
        line.extend_from_slice(b"\xff\xfe\xc3(");
        line.extend_from_slice(br#""}}"#);
        line
    };
    let deep = {
        const DEPTH: usize = 100_000;
        let mut line = format!(
            r#"{{"jsonrpc":"2.0","id":"deep","method":"server/discover","params":{{"_meta":{meta},"nested":"#
        )
        .into_bytes();
        line.resize(line.len() + DEPTH, b'[');
        line.resize(line.len() + DEPTH, b']');
        line.extend_from_slice(b"}}");
        line
    };
    let cases = [
        ("robust.oversized-line", "oversized-line", oversized),
        ("robust.invalid-utf8", "invalid-utf8", not_utf8),
        ("robust.deep-nesting", "deep-nesting", deep),
    ];
    let mut results = Vec::new();
    for (check, name, hostile) in cases {
        let id = wire::string_id(&format!("alive-after-{name}"));
        let probe = wire::request(&id, "server/discover", &wire::params());
        let shown = format!(
            "{}\n{}",
            wire::show(&hostile, 120),
            wire::show(&probe, SHOWN)
        );
        let outcome = match cx.exchange(&[&hostile, &probe], Some("server/discover"), Some(&id)) {
            Err(e @ (NoReply::Deadline | NoReply::Silent)) => Outcome::NotRun(cx.describe(&e)),
            Err(e) => Outcome::Fail(Failure {
                reason: format!("the request after it: {}", cx.describe(&e)),
                request: Some(shown),
                reply: None,
            }),
            Ok(reply) if cx.facts.discover_ok == Some(true) && reply.result().is_none() => {
                Outcome::Fail(Failure {
                    reason: format!(
                        "the request after it got {}, where the same request got a result before",
                        reply.gist()
                    ),
                    request: Some(shown),
                    reply: Some(wire::show(&reply.line, SHOWN)),
                })
            }
            Ok(_) => Outcome::Pass,
        };
        results.push((check, outcome));
    }
    results
}

/// Where the schemas come from.
pub struct Schemas {
    /// The 2026-07-28 schema, or why there is none.
    pub modern: Result<Schema, String>,
    /// The folder holding `<version>/schema.json` for legacy results.
    pub dir: Option<std::path::PathBuf>,
}

/// `stdout.json-rpc`, `stdout.schema`: every line kept so far.
pub fn stdout(cx: &Ctx, schemas: &Schemas) -> Results {
    let total = cx.seen.len();
    let mut envelope_bad: Vec<(&Seen, String)> = Vec::new();
    let mut schema_bad: Vec<(&Seen, String)> = Vec::new();
    let mut legacy: BTreeMap<String, Option<Schema>> = BTreeMap::new();
    // Lines validated against a schema, and the legacy versions of lines
    // that could not be (no schema for them in the folder).
    let mut validated = 0usize;
    let mut unjudged: BTreeMap<String, usize> = BTreeMap::new();
    for seen in &cx.seen {
        if seen.line.truncated() {
            envelope_bad.push((seen, format!("a line longer than {MAX_LINE} bytes")));
            continue;
        }
        if let Some(problem) = wire::envelope_problem(&seen.line.bytes) {
            envelope_bad.push((seen, problem));
            continue;
        }
        let Ok(modern) = &schemas.modern else {
            continue;
        };
        let value = match serde_json::from_slice::<Value>(&seen.line.bytes) {
            Ok(value) => value,
            Err(e) => {
                schema_bad.push((seen, format!("not JSON: {e}")));
                continue;
            }
        };
        let verdict = if value.get("method").is_some() {
            modern
                .validate("JSONRPCNotification", &value)
                .and_then(|()| {
                    if modern.defines("ServerNotification") {
                        modern.validate("ServerNotification", &value)
                    } else {
                        Ok(())
                    }
                })
        } else if seen.method.as_deref() == Some("initialize") && value.get("result").is_some() {
            let version = value["result"]["protocolVersion"]
                .as_str()
                .unwrap_or("")
                .to_string();
            let schema = legacy.entry(version.clone()).or_insert_with(|| {
                let dir = schemas.dir.as_ref()?;
                Schema::load(dir, &version).ok()
            });
            // A legacy version with no schema in the folder cannot be
            // judged: the line is counted as unjudged, never as valid.
            match schema {
                Some(schema) => schema.validate_reply(Some("initialize"), &value),
                None => {
                    *unjudged.entry(version).or_default() += 1;
                    continue;
                }
            }
        } else {
            modern.validate_reply(seen.method.as_deref(), &value)
        };
        validated += 1;
        if let Err(e) = verdict {
            schema_bad.push((seen, e));
        }
    }
    let unkept = if cx.unkept > 0 {
        format!(" ({} more lines were not kept)", cx.unkept)
    } else {
        String::new()
    };
    let report = |bad: &[(&Seen, String)], what: &str| match bad.first() {
        None => Outcome::Pass,
        Some((seen, why)) => Outcome::Fail(Failure {
            reason: format!(
                "{} of {} stdout lines {what}{unkept}; the first: {}",
                bad.len(),
                total,
                why
            ),
            request: None,
            reply: Some(wire::show(&seen.line.bytes, SHOWN)),
        }),
    };
    // Nothing on stdout is nothing judged: neither check passes on it.
    let nothing = || {
        Outcome::NotRun(format!(
            "the server wrote no line on stdout{unkept}: there was nothing to judge"
        ))
    };
    let envelope = match total {
        0 => nothing(),
        _ => report(
            &envelope_bad,
            "are not JSON-RPC 2.0 responses or notifications",
        ),
    };
    let schema = match &schemas.modern {
        Ok(_) if total == 0 => nothing(),
        Ok(_) if schema_bad.is_empty() && !unjudged.is_empty() => {
            let which: Vec<String> = unjudged
                .iter()
                .map(|(version, n)| format!("{n} initialize result(s) of version {version:?}"))
                .collect();
            Outcome::NotRun(format!(
                "{validated} of {total} stdout lines validated, but {} could not be judged: no \
                 schema for them in the schema folder (MCP_SPEC_DIR, or the folder of \
                 --schema); add <version>/schema.json there to run this check whole",
                which.join(", ")
            ))
        }
        Ok(_) if validated == 0 && schema_bad.is_empty() => Outcome::NotRun(format!(
            "none of the {total} stdout lines was a JSON-RPC message to validate"
        )),
        Err(why) => Outcome::NotRun(format!(
            "no official 2026-07-28 schema to validate with ({why}): pass --schema FILE or \
             set MCP_SPEC_DIR to the schema/ folder of the specification repository at commit \
             {} (or put that folder at ../mcp-spec/schema beside this checkout; README, \"Tests \
             need the official schemas\")",
            mcp_reference_testkit::schema::SPEC_COMMIT
        )),
        Ok(_) => report(&schema_bad, "do not validate against the official schema"),
    };
    vec![("stdout.json-rpc", envelope), ("stdout.schema", schema)]
}
