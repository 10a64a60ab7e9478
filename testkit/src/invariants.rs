//! Invariant checks of one reply, for property tests, fuzz targets and
//! corpus replay: given a configuration, an input line and the reply bytes
//! (empty: no reply), whether the reply is the model's
//! ([`crate::model`], exact: id, code, message, data, result content) and
//! keeps the invariants the model does not state, which hold for every
//! line, even one whose reply the model cannot tell. No schema validation
//! here (too slow for fuzzing); the properties validate against the
//! official schema separately with [`crate::schema`].
//!
//! What [`Checker::check`] asserts:
//!
//! | invariant | how |
//! | --- | --- |
//! | the model's reply | [`crate::model::Expect::check`]: a reply exactly when one is due, the id as raw text, the exact error or result content |
//! | at most one line, valid JSON-RPC | [`crate::model::read_reply`]: one line, UTF-8, an object with `jsonrpc`, `id` and exactly one of `result` and `error` |
//! | known errors | an integer code this server may emit; `-32700` with id null; `-32022` with the full supported list and the requested version |
//! | results | an object; `resultType: "complete"` while the legacy path is off; a successful tool result carries `structuredContent`, and a text block whose JSON equals it |
//! | no leak | no value of an order the user may not read (id, owner, status, time, source version) appears in the reply, unless it also appears in the request line or in what the server says without those orders; on every path: `tools/call`, `resources/read` through the order template, `prompts/get` (the embedded order), `completion/complete` (its values) |
//! | noninterference | the reply equals, byte for byte, the reply of the same server built without the orders the user may not read: so another user's order changes no completion's values, `total` or `hasMore`, and is answered as one that does not exist (R6, P5, C1, DEC12) |
//!
//! Spec: JSON-RPC 2.0 sections 4 and 5 (one response per request, id
//! echoed, null when unreadable); 2026-07-28 `basic/transports/stdio.mdx`
//! (one message per line, no embedded newlines), `basic/index.mdx`
//! (notifications are never answered; error codes), `basic/versioning.mdx`
//! (`UnsupportedProtocolVersionError`), `server/tools.mdx` ("Structured
//! Content"); DEC12 (not yours == not found).

use std::collections::VecDeque;
use std::sync::{Mutex, OnceLock};

use serde_json::Value;

use crate::model::{self, Expect, Json, ReplyTree};
use mcp_reference::Config;
use mcp_reference::Server;

/// The error codes this server may emit (row W2, decided by the model).
pub const CODES: &[i64] = model::ERROR_CODES;

// ---------------------------------------------------------------------------
// The checks

/// One value of an order the user may not read.
#[derive(Debug, Clone)]
struct Secret {
    value: String,
    escaped: String,
    order_id: String,
    field: &'static str,
}

/// The invariant checks for one configuration, with what they need built
/// once: the values the user may not read, and the same server without
/// them.
pub struct Checker {
    config: Config,
    public: Server,
    secrets: Vec<Secret>,
    /// What the server without those orders says to requests of no
    /// request-specific input; built when a check first needs it.
    constant: OnceLock<Vec<u8>>,
    /// The latest (expectation, reply) pairs that passed every check with
    /// the reply equal to the public one (see [`Checker::passed`]).
    passed: Mutex<VecDeque<(Expect, Vec<u8>)>>,
}

/// How many passed (expectation, reply) pairs a [`Checker`] remembers: a
/// fuzzer's inputs mostly get the same few replies (a parse error, an
/// invalid request), far fewer than this.
const MEMO: usize = 64;

/// Escaped as inside a JSON string literal (without the quotes).
fn escaped(s: &str) -> String {
    let quoted = serde_json::to_string(s).unwrap_or_default();
    quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .unwrap_or_default()
        .to_string()
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    !needle.is_empty() && memchr::memmem::find(haystack, needle.as_bytes()).is_some()
}

impl Checker {
    /// Prepares the checks for `config`.
    pub fn new(config: &Config) -> Checker {
        Checker::try_new(config).unwrap_or_else(|_| Checker::with_public(config, config.clone()))
    }

    /// [`Checker::new`], or why the configuration without the orders the
    /// user may not read is not a valid one.
    pub fn try_new(config: &Config) -> Result<Checker, mcp_reference::ConfigError> {
        let user = config.user();
        let readable = config.orders().iter().filter(|o| o.owner == user);
        let public = config.clone().with_orders(readable.cloned().collect())?;
        Ok(Checker::with_public(config, public))
    }

    fn with_public(config: &Config, public_config: Config) -> Checker {
        let user = config.user();
        let forbidden = config.orders().iter().filter(|o| o.owner != user);
        let public = Server::new(public_config);
        let secrets = forbidden
            .flat_map(|o| {
                [
                    ("order_id", &o.order_id),
                    ("owner", &o.owner),
                    ("status", &o.status),
                    ("as_of", &o.as_of),
                    ("source_version", &o.source_version),
                ]
                .map(|(field, value)| Secret {
                    value: value.clone(),
                    escaped: escaped(value),
                    order_id: o.order_id.clone(),
                    field,
                })
            })
            .collect();
        Checker {
            config: config.clone(),
            public,
            secrets,
            constant: OnceLock::new(),
            passed: Mutex::new(VecDeque::new()),
        }
    }

    /// What the server says without any request-specific input: its
    /// constant results (discover, the tool list, the tool texts), as the
    /// server without the orders the user may not read says them.
    fn constant(&self) -> &[u8] {
        self.constant.get_or_init(|| {
            let config = &self.config;
            let public = &self.public;
            let version = serde_json::to_string(config.versions().first().map_or("", |v| v.as_str()))
                .unwrap_or_default();
            let meta = format!(
                r#""_meta":{{"io.modelcontextprotocol/protocolVersion":{version},"io.modelcontextprotocol/clientCapabilities":{{}}}}"#
            );
            let mut constant = Vec::new();
            for params in [
                String::new(),
                r#","name":"get_order","arguments":{"order_id":""}"#.to_string(),
                r#","name":"get_order","arguments":{}"#.to_string(),
                r#","name":"lookup_stock","arguments":{}"#.to_string(),
                r#","name":"lookup_stock","arguments":{"product_id":""}"#.to_string(),
            ] {
                for method in ["server/discover", "tools/list", "tools/call"] {
                    let line = format!(
                        r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{meta}{params}}}}}"#
                    );
                    if let Some(reply) = public.respond(line.as_bytes()) {
                        constant.extend_from_slice(&reply);
                    }
                }
            }
            // The catalog's constant replies (issue 32): the lists, the
            // static resources, the prompt without arguments.
            let uris = config.catalog().resources.iter().map(|r| {
                format!(r#","uri":{}"#, serde_json::to_string(&r.uri).unwrap_or_default())
            });
            let catalog = [
                ("resources/list", String::new()),
                ("resources/templates/list", String::new()),
                ("prompts/list", String::new()),
                ("prompts/get", r#","name":"returns_help""#.to_string()),
            ]
            .into_iter()
            .chain(uris.map(|u| ("resources/read", u)));
            for (method, params) in catalog {
                let line = format!(
                    r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{meta}{params}}}}}"#
                );
                if let Some(reply) = public.respond(line.as_bytes()) {
                    constant.extend_from_slice(&reply);
                }
            }
            constant
        })
    }

    /// The same server without the orders the user may not read.
    pub fn public(&self) -> &Server {
        &self.public
    }

    /// The configuration checked against.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The reply of the same server without the orders the user may not
    /// read (empty: no reply).
    pub fn public_reply(&self, line: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        self.public.respond_into(line, &mut out);
        out
    }

    /// Every invariant, for a reply of the core (or of a session to a line
    /// the core answers): the model's expectation for the core, the
    /// invariants beyond it, and the reply equals the reply of the same
    /// server without the orders the user may not read.
    pub fn check(&self, line: &[u8], reply: &[u8]) -> Result<(), String> {
        self.check_with(line, reply, &model::expect_line(&self.config, line))
    }

    /// [`Checker::check`] with the model's expectation already computed.
    pub fn check_with(&self, line: &[u8], reply: &[u8], expect: &Expect) -> Result<(), String> {
        let public = self.public_reply(line);
        if reply == public.as_slice() && self.passed(expect, reply) {
            return Ok(());
        }
        self.generic(line, reply, &public, expect)?;
        if reply != public.as_slice() {
            return Err(format!(
                "the reply depends on orders the user may not read: {} without them, {} with them",
                show(&public),
                show(reply)
            ));
        }
        self.remember(expect, reply);
        Ok(())
    }

    /// Whether `reply` already passed [`Checker::generic`] against
    /// `expect`, as the public reply. For such a reply the checks are a
    /// function of (configuration, expectation, reply) alone: the one check
    /// that also reads the line (the leak) finds nothing in a reply equal to
    /// the public one. So the verdict is the same, without reading the
    /// reply again.
    fn passed(&self, expect: &Expect, reply: &[u8]) -> bool {
        let Ok(memo) = self.passed.lock() else {
            return false;
        };
        memo.iter()
            .any(|(e, r)| r.as_slice() == reply && e == expect)
    }

    fn remember(&self, expect: &Expect, reply: &[u8]) {
        if let Ok(mut memo) = self.passed.lock() {
            if memo.len() >= MEMO {
                memo.pop_front();
            }
            memo.push_back((expect.clone(), reply.to_vec()));
        }
    }

    fn generic(
        &self,
        line: &[u8],
        reply: &[u8],
        public: &[u8],
        expect: &Expect,
    ) -> Result<(), String> {
        // Read once: the model's check reads the reply (framing, W1, the
        // envelope) whenever one is there.
        let Some(read) = expect.check_reply(&self.config, reply)? else {
            return Ok(());
        };
        self.check_error(&read, reply, expect)?;
        // Only the coded tools declare an `outputSchema`; a content tool's
        // result (T10) has no `structuredContent` to agree with.
        let declares_output = !matches!(
            &expect.reply,
            model::Reply::Result {
                body: model::Body::Content(_),
                ..
            }
        );
        // An input target's reply (I2, I4, I9) may be an
        // `InputRequiredResult`, which the model judged whole.
        let input = matches!(&expect.reply, model::Reply::Input { .. });
        self.check_result(&read, reply, declares_output && !input, input)?;
        // A reply equal to the one without the orders the user may not read
        // says nothing of them that the public reply does not say (so the
        // leak check finds nothing there); any other reply is named as a
        // leak first, and else as interference by the caller.
        if reply != public {
            self.check_leak(line, reply, public)?;
        }
        Ok(())
    }

    fn check_error(&self, read: &ReplyTree, reply: &[u8], expect: &Expect) -> Result<(), String> {
        let Some(error) = read.error() else {
            return Ok(());
        };
        let code = match error.get("code") {
            Some(Json::Num(n)) => serde_json::from_str::<serde_json::Number>(n)
                .ok()
                .and_then(|n| n.as_i64()),
            _ => None,
        };
        // W2: `-32021` only where the model says row I3 or I14 is due.
        let missing_capability =
            ["I3", "I14"].contains(&expect.row) && code == Some(crate::model::rows::fixed("I3").0);
        if !code.is_some_and(|c| CODES.contains(&c)) && !missing_capability {
            return Err(format!(
                "an error code this server may not emit: {}",
                show(reply)
            ));
        }
        if error.get("message").and_then(Json::as_str).is_none() {
            return Err(format!("an error needs a string message: {}", show(reply)));
        }
        if code == Some(-32700) && read.id != "null" {
            return Err(format!("-32700 needs id null: {}", show(reply)));
        }
        if code == Some(-32022) {
            let data = error.get("data");
            let supported = crate::model::supported_versions(&self.config);
            let listed = data.and_then(|d| d.get("supported")).map(Json::to_value);
            if listed != Some(serde_json::json!(supported)) {
                return Err(format!(
                    "-32022 must list every supported version {supported:?}: {}",
                    show(reply)
                ));
            }
            let requested = data.and_then(|d| d.get("requested"));
            if requested.and_then(Json::as_str).is_none() {
                return Err(format!(
                    "-32022 must name the requested version: {}",
                    show(reply)
                ));
            }
        }
        Ok(())
    }

    fn check_result(
        &self,
        read: &ReplyTree,
        reply: &[u8],
        declares_output: bool,
        input: bool,
    ) -> Result<(), String> {
        let (Some(result), Some(value)) = (read.result(), read.result_value()) else {
            return Ok(());
        };
        if !result.is_object() {
            return Err(format!("a result must be an object: {}", show(reply)));
        }
        if self.config.legacy_versions().is_empty()
            && !input
            && result.get("resultType").and_then(Json::as_str) != Some("complete")
        {
            return Err(format!(
                "a 2026-07-28 result needs resultType \"complete\": {}",
                show(reply)
            ));
        }
        structured(value, declares_output).map_err(|e| format!("{e}: {}", show(reply)))
    }

    fn check_leak(&self, line: &[u8], reply: &[u8], public: &[u8]) -> Result<(), String> {
        for s in &self.secrets {
            let shown = [s.value.as_str(), s.escaped.as_str()];
            let in_reply = shown.iter().any(|v| contains(reply, v));
            if !in_reply {
                continue;
            }
            let said_anyway = shown
                .iter()
                .any(|v| contains(line, v) || contains(public, v) || contains(self.constant(), v));
            if !said_anyway {
                return Err(format!(
                    "the reply leaks {} {:?} of order {:?}, which the user may not read: {}",
                    s.field,
                    s.value,
                    s.order_id,
                    show(reply)
                ));
            }
        }
        Ok(())
    }
}

/// All invariants of [`Checker::check`], building the checker for one use.
pub fn check(config: &Config, line: &[u8], reply: &[u8]) -> Result<(), String> {
    Checker::new(config).check(line, reply)
}

fn show(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        "no reply".into()
    } else {
        String::from_utf8_lossy(bytes).trim_end().to_string()
    }
}

/// At most one response per request, after only the notifications its
/// own `_meta` asked for (`notices`, the model's count, rows T12 and T13):
/// exactly that many notification lines (a `method`, no `id`), then empty
/// or one line ending with its only `\n`, with no `\r` anywhere (so no
/// host splitting on CR LF sees two). The shape of the response line is
/// [`crate::model::read_reply`]'s to check.
pub fn framing(reply: &[u8], notices: usize) -> Result<(), String> {
    let mut reply = reply;
    for n in 0..notices {
        let Some(end) = memchr::memchr(b'\n', reply) else {
            return Err(format!(
                "notification {} of {notices} is missing: {}",
                n + 1,
                show(reply)
            ));
        };
        let (line, rest) = reply.split_at(end);
        let v: serde_json::Value = serde_json::from_slice(line)
            .map_err(|_| format!("a line before the response is not JSON: {}", show(line)))?;
        if v.get("id").is_some() || !v.get("method").is_some_and(serde_json::Value::is_string) {
            return Err(format!(
                "a line before the response is not a notification: {v}"
            ));
        }
        if memchr::memchr(b'\r', line).is_some() {
            return Err(format!(
                "a notification has a carriage return: {}",
                show(line)
            ));
        }
        reply = rest.get(1..).unwrap_or_default();
    }
    if reply.is_empty() {
        return Ok(());
    }
    if reply.last() != Some(&b'\n') {
        return Err(format!(
            "the reply does not end with a newline: {}",
            show(reply)
        ));
    }
    let newlines = memchr::memchr_iter(b'\n', reply).count();
    if newlines != 1 {
        return Err(format!(
            "the reply has {newlines} newlines: {}",
            show(reply)
        ));
    }
    if memchr::memchr(b'\r', reply).is_some() {
        return Err(format!("the reply has a carriage return: {}", show(reply)));
    }
    if std::str::from_utf8(reply).is_err() {
        return Err("the reply is not UTF-8".into());
    }
    Ok(())
}

/// The response of a reply: its last line (the lines before it are the
/// notifications the request asked for, rows T12 and T13).
pub fn response(reply: &[u8]) -> &[u8] {
    let body = reply.strip_suffix(b"\n").unwrap_or(reply);
    match memchr::memrchr(b'\n', body) {
        Some(i) => reply.get(i + 1..).unwrap_or_default(),
        None => reply,
    }
}

/// The reply's raw id equals `expected` (the request's raw id text), or is
/// `null` when `expected` is `None`. Compared on the raw bytes, so integers
/// of any size must come back digit for digit.
pub fn id_echo(expected: Option<&str>, reply: &[u8]) -> Result<(), String> {
    let got = model::read_reply(response(reply))?.id;
    let want = expected.unwrap_or("null");
    if got != want {
        return Err(format!(
            "the reply's id is {got}, the request's {want}: {}",
            show(reply)
        ));
    }
    Ok(())
}

/// A tool result's text content equals its `structuredContent`: when
/// `structuredContent` is present, a text block holds the same JSON; a
/// successful tool result (`isError: false`) of a tool that declares an
/// `outputSchema` (`declares_output`: the coded tools; a content tool, T10,
/// declares none) has it.
pub fn structured(result: &Value, declares_output: bool) -> Result<(), String> {
    let structured = result.get("structuredContent");
    if declares_output && result.get("isError") == Some(&Value::Bool(false)) && structured.is_none()
    {
        return Err("a successful tool result needs structuredContent".into());
    }
    let Some(structured) = structured else {
        return Ok(());
    };
    let texts: Vec<&str> = result
        .get("content")
        .and_then(Value::as_array)
        .map(|blocks| {
            blocks
                .iter()
                .filter(|b| b.get("type") == Some(&Value::from("text")))
                .filter_map(|b| b.get("text")?.as_str())
                .collect()
        })
        .unwrap_or_default();
    let same = texts
        .iter()
        .any(|t| serde_json::from_str::<Value>(t).ok().as_ref() == Some(structured));
    if !same {
        return Err("no text block holds the structuredContent".into());
    }
    Ok(())
}
