//! What `bench` sends and how it decides that a reply counts: the request
//! mix (`server/discover`, `tools/list`, and the `tools/call` the user
//! names, in turn), each request with the 2026-07-28 `_meta` a client
//! sends, and the one judgement of a reply, [`Workload::judge`].
//!
//! Validity is never decided here: with [`Valid::Model`] (the default)
//! the test kit's executable model decides
//! ([`mcp_reference_testkit::model::expect_line`] for the request line,
//! [`mcp_reference_testkit::model::Expect::check`] for the reply; over
//! HTTP [`mcp_reference_testkit::model::http::expect_http`] and its
//! check, a body sent as an event stream read by the model's
//! [`mcp_reference_testkit::model::http::event_lines`]), for the
//! configuration the reference serves. With
//! [`Valid::Result`] (for a server whose data or wording is not the
//! reference's) the checker's own stdout envelope rule decides
//! ([`crate::check::wire::envelope_problem`]) and bench asks only what its
//! workload needs: the request's id ([`crate::check::wire::same_id`]), a
//! `result`, and for the call not `isError: true` (a failed call did not do
//! the work being measured).

use mcp_reference::Config;
use mcp_reference_testkit::model;
use mcp_reference_testkit::model::http::{HttpRequest, Listen, expect_http};
use serde_json::{Map, Value, json};

use crate::check::wire;

/// The tool called by default: Example 43.2's request.
pub const DEFAULT_CALL: &str = r#"get_order={"order_id":"A-104"}"#;

/// How a reply is judged valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Valid {
    /// The test kit's model, for the configuration `--config` names: the
    /// reply the reference gives, up to the id.
    Model,
    /// A JSON-RPC response with the request's id and a `result` (for the
    /// call, not `isError: true`).
    Result,
}

impl Valid {
    /// The flag's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Valid::Model => "model",
            Valid::Result => "result",
        }
    }
}

/// `--call TOOL=ARGS_JSON`: a tool name and its arguments (an object).
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The tool's name.
    pub name: String,
    /// Its arguments.
    pub arguments: Map<String, Value>,
}

impl Call {
    /// Parses `TOOL=ARGS_JSON`; `Err` is one sentence.
    pub fn parse(s: &str) -> Result<Call, String> {
        let Some((name, args)) = s.split_once('=') else {
            return Err(format!(
                "--call {s:?} is not TOOL=ARGS_JSON, for example --call '{DEFAULT_CALL}'"
            ));
        };
        if name.trim().is_empty() {
            return Err(format!("--call {s:?} names no tool before `=`"));
        }
        match serde_json::from_str::<Value>(args) {
            Ok(Value::Object(arguments)) => Ok(Call {
                name: name.to_owned(),
                arguments,
            }),
            Ok(_) => Err(format!(
                "--call {name}=...: the arguments must be a JSON object, such as {{\"order_id\":\"A-104\"}}"
            )),
            Err(e) => Err(format!(
                "--call {name}=...: the arguments are not JSON ({e})"
            )),
        }
    }
}

/// The three kinds of request, sent in this order, round and round.
pub const KINDS: [&str; 3] = ["server/discover", "tools/list", "tools/call"];

/// The requests and their judge.
#[derive(Debug, Clone)]
pub struct Workload {
    /// The configuration the reference serves, which the model judges by.
    pub config: Config,
    /// The tool call.
    pub call: Call,
    /// How replies are judged.
    pub valid: Valid,
    params: [Value; 3],
    /// The headers a conforming client sends with each kind of request
    /// (they do not depend on the id), `Host` left out.
    headers: [Vec<(String, Vec<u8>)>; 3],
}

/// Why a reply does not count, in a word or two (the report's error
/// kinds) and in full (the first one is shown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// The kind.
    pub kind: &'static str,
    /// What was wrong.
    pub detail: String,
}

impl Workload {
    /// The workload for `call`, judged by `valid` under `config`.
    pub fn new(config: Config, call: Call, valid: Valid) -> Workload {
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": wire::VERSION,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {
                "name": "mcp-reference-bench",
                "version": env!("CARGO_PKG_VERSION")
            }
        });
        let plain = json!({ "_meta": meta });
        let called = json!({
            "name": call.name,
            "arguments": call.arguments,
            "_meta": meta,
        });
        let mut workload = Workload {
            config,
            call,
            valid,
            params: [plain.clone(), plain, called],
            headers: Default::default(),
        };
        let listen = Listen {
            port: 0,
            loopback: true,
        };
        let headers = [0, 1, 2].map(|n| {
            let mut h = mcp_reference_testkit::http::conforming(
                &workload.config,
                listen,
                &workload.line(n),
            );
            h.retain(|(name, _)| !name.eq_ignore_ascii_case("host"));
            h
        });
        workload.headers = headers;
        workload
    }

    /// The kind of request number `n` (`0`, `1` or `2`: an index of
    /// [`KINDS`]).
    pub fn kind(n: u64) -> usize {
        (n % 3) as usize
    }

    /// Request number `n`'s line (no newline), with id `n + 1`.
    pub fn line(&self, n: u64) -> Vec<u8> {
        let kind = Workload::kind(n);
        let method = KINDS.get(kind).copied().unwrap_or("server/discover");
        let params = self.params.get(kind).unwrap_or(&Value::Null);
        wire::request(&(n + 1).to_string(), method, params)
    }

    /// The error code the model expects for the call under the
    /// configuration (an unknown tool: `-32602`), if it expects an error:
    /// with [`Valid::Model`] that error is the valid answer, so the run
    /// measures errors.
    pub fn call_error(&self) -> Option<i64> {
        model::expect_line(&self.config, &self.line(2)).code()
    }

    /// Judges the reply line `reply` (no newline) to `request` on stdio.
    pub fn judge(&self, request: &[u8], reply: &[u8]) -> Result<(), Invalid> {
        match self.valid {
            Valid::Model => {
                let line = [reply, b"\n"].concat();
                model::expect_line(&self.config, request)
                    .check(&self.config, &line)
                    .map_err(|detail| Invalid {
                        kind: "not the model's reply",
                        detail,
                    })
            }
            Valid::Result => self.judge_result(request, reply),
        }
    }

    /// Judges an HTTP response to `request` (sent to a server listening on
    /// loopback port `port`): headers with lowercase names.
    pub fn judge_http(
        &self,
        request: &HttpRequest,
        port: u16,
        status: u16,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<(), Invalid> {
        match self.valid {
            Valid::Model => {
                let listen = Listen {
                    port,
                    loopback: true,
                };
                let expect = expect_http(&self.config, listen, request);
                let invalid = |detail| Invalid {
                    kind: "not the model's reply",
                    detail,
                };
                let sse = headers.iter().any(|(n, v)| {
                    *n == "content-type" && v.trim_start().starts_with("text/event-stream")
                });
                match (&expect.body, sse && !expect.stream) {
                    // A client accepts either form of the body (the
                    // reference answers application/json): the event
                    // stream's lines are judged as the JSON body would be.
                    (Some(reply), true) => {
                        if status != expect.status {
                            return Err(invalid(format!(
                                "row {}: status {status}, expected {}",
                                expect.row, expect.status
                            )));
                        }
                        let lines = model::http::event_lines(body).map_err(invalid)?;
                        reply.check(&self.config, &lines).map_err(invalid)
                    }
                    _ => expect
                        .check(&self.config, status, headers, body)
                        .map_err(invalid),
                }
            }
            Valid::Result => {
                if status != 200 {
                    return Err(Invalid {
                        kind: "HTTP status not 200",
                        detail: format!("status {status}: {}", wire::show(body, 300)),
                    });
                }
                let content_type = headers
                    .iter()
                    .find(|(n, _)| *n == "content-type")
                    .map(|(_, v)| *v)
                    .unwrap_or_default();
                let line = if content_type.starts_with("text/event-stream") {
                    // The last event carries the response.
                    let text = String::from_utf8_lossy(body);
                    let last = text
                        .replace("\r\n", "\n")
                        .split("\n\n")
                        .filter_map(|event| {
                            let data: Vec<&str> = event
                                .lines()
                                .filter_map(|l| l.strip_prefix("data:"))
                                .map(|d| d.strip_prefix(' ').unwrap_or(d))
                                .collect();
                            (!data.is_empty()).then(|| data.join("\n"))
                        })
                        .last()
                        .unwrap_or_default();
                    last.into_bytes()
                } else {
                    body.to_vec()
                };
                self.judge_result(&request.body, &line)
            }
        }
    }

    fn judge_result(&self, request: &[u8], reply: &[u8]) -> Result<(), Invalid> {
        let invalid = |kind: &'static str, why: &str| Invalid {
            kind,
            detail: format!("{why}: {}", wire::show(reply, 300)),
        };
        if let Some(problem) = wire::envelope_problem(reply) {
            return Err(invalid("not a JSON-RPC response", &problem));
        }
        let sent = wire::raw_id(request).unwrap_or_default();
        if !wire::same_id(&sent, wire::raw_id(reply).as_deref()) {
            return Err(invalid("another id", &format!("expected the id {sent}")));
        }
        let value: Value = serde_json::from_slice(reply).unwrap_or_default();
        let Some(result) = value.get("result").and_then(Value::as_object) else {
            return Err(invalid("an error, not a result", "not a result object"));
        };
        let is_call = serde_json::from_slice::<Value>(request)
            .ok()
            .and_then(|r| r.get("method").and_then(Value::as_str).map(str::to_owned))
            .is_some_and(|m| m == "tools/call");
        if is_call && result.get("isError") == Some(&Value::Bool(true)) {
            return Err(invalid("the call failed", "isError is true"));
        }
        Ok(())
    }

    /// The HTTP request a conforming client sends with request `n` to
    /// the endpoint `authority` + `path` (the headers every conforming
    /// client sends: [`mcp_reference_testkit::http::conforming`]).
    pub fn http_request(&self, authority: &str, path: &str, n: u64) -> HttpRequest {
        let mut headers = vec![("Host".to_owned(), authority.as_bytes().to_vec())];
        headers.extend(
            self.headers
                .get(Workload::kind(n))
                .cloned()
                .unwrap_or_default(),
        );
        HttpRequest {
            method: "POST".into(),
            target: path.to_owned(),
            headers,
            body: self.line(n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn textbook(valid: Valid) -> Workload {
        let call = Call::parse(DEFAULT_CALL).unwrap();
        Workload::new(Config::default(), call, valid)
    }

    #[test]
    fn the_model_says_when_the_call_is_an_error() {
        assert_eq!(textbook(Valid::Model).call_error(), None);
        let call = Call::parse(r#"cancel_order={"order_id":"A-104"}"#).unwrap();
        let w = Workload::new(Config::default(), call, Valid::Model);
        assert_eq!(w.call_error(), Some(-32602));
    }

    #[test]
    fn calls_parse() {
        let call = Call::parse(DEFAULT_CALL).unwrap();
        assert_eq!(call.name, "get_order");
        assert_eq!(call.arguments.get("order_id"), Some(&json!("A-104")));
        assert_eq!(Call::parse("t={}").unwrap().arguments.len(), 0);
        // The first `=` splits: the arguments may hold more.
        assert_eq!(
            Call::parse(r#"t={"a":"x=y"}"#).unwrap().arguments.get("a"),
            Some(&json!("x=y"))
        );
        for bad in ["get_order", "={}", "t=[1]", "t=", "t={", "t=\"x\""] {
            assert!(Call::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_call_is_example_43_2s_request_with_another_id_and_client() {
        let w = textbook(Valid::Model);
        let line: Value = serde_json::from_slice(&w.line(2)).unwrap();
        let book: Value =
            serde_json::from_str(include_str!("../../../data/example-43.2.request.json")).unwrap();
        assert_eq!(line["id"], 3);
        assert_eq!(line["method"], book["method"]);
        assert_eq!(line["params"]["name"], book["params"]["name"]);
        assert_eq!(line["params"]["arguments"], book["params"]["arguments"]);
        for key in [
            "io.modelcontextprotocol/protocolVersion",
            "io.modelcontextprotocol/clientCapabilities",
        ] {
            assert_eq!(line["params"]["_meta"][key], book["params"]["_meta"][key]);
        }
        let kinds: Vec<Value> = (0..4)
            .map(|n| serde_json::from_slice::<Value>(&w.line(n)).unwrap()["method"].clone())
            .collect();
        assert_eq!(
            kinds,
            [
                "server/discover",
                "tools/list",
                "tools/call",
                "server/discover"
            ]
        );
    }

    #[test]
    fn judged_by_the_model_or_by_the_result() {
        let book = include_bytes!("../../../data/example-43.2.response.json");
        let book = book.strip_suffix(b"\n").unwrap_or(book);
        for valid in [Valid::Model, Valid::Result] {
            let w = textbook(valid);
            assert_eq!(w.judge(&w.line(2), book), Ok(()), "{valid:?}");
            // Another id.
            assert!(w.judge(&w.line(5), book).is_err(), "{valid:?}");
            let error = br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"no"}}"#;
            assert!(w.judge(&w.line(2), error).is_err(), "{valid:?}");
            assert!(w.judge(&w.line(2), b"not json").is_err(), "{valid:?}");
        }
        // The model holds the content to the configuration's; the result
        // judgement does not.
        let other = br#"{"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#;
        assert!(
            textbook(Valid::Model)
                .judge(&textbook(Valid::Model).line(2), other)
                .is_err()
        );
        let w = textbook(Valid::Result);
        assert_eq!(w.judge(&w.line(2), other), Ok(()));
        let failed = br#"{"jsonrpc":"2.0","id":3,"result":{"isError":true,"content":[]}}"#;
        assert_eq!(
            w.judge(&w.line(2), failed).map_err(|e| e.kind),
            Err("the call failed")
        );
    }

    #[test]
    fn http_requests_carry_the_mirrored_headers() {
        let w = textbook(Valid::Model);
        let r = w.http_request("127.0.0.1:9", "/mcp", 2);
        let get = |name: &str| {
            r.headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
        };
        assert_eq!(get("host").as_deref(), Some("127.0.0.1:9"));
        assert_eq!(get("mcp-method").as_deref(), Some("tools/call"));
        assert_eq!(get("mcp-name").as_deref(), Some("get_order"));
        assert_eq!(get("mcp-protocol-version").as_deref(), Some("2026-07-28"));
        assert!(get("accept").is_some_and(|a| a.contains("text/event-stream")));
        assert_eq!(get("content-type").as_deref(), Some("application/json"));
    }
}
